package io.tracesync.deploy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Manifests read into Kubernetes' API types (fabric8's model, generated from Kubernetes' OpenAPI schemas), as
 * strictly as the API server decodes them: a field the type does not have (fabric8 keeps it in
 * {@code additionalProperties}, at any depth) or a scalar of the wrong type (a number where a string belongs,
 * as in a ConfigMap's data or an env value) is an error.
 */
final class KubernetesModel {

    private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.of(
            "v1/ConfigMap", ConfigMap.class,
            "v1/Service", Service.class,
            "apps/v1/StatefulSet", StatefulSet.class,
            "batch/v1/Job", Job.class,
            "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class);

    private static final ObjectMapper STRICT = strict();

    private KubernetesModel() {
    }

    private static ObjectMapper strict() {
        JsonMapper m = JsonMapper.builder(new YAMLFactory()).disable(MapperFeature.ALLOW_COERCION_OF_SCALARS).build();
        for (CoercionInputShape shape : List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean)) {
            m.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        return m;
    }

    /** The manifest as its API type; fails naming the file and every field Kubernetes would not know. */
    static HasMetadata read(String name, JsonNode manifest) {
        String type = manifest.path("apiVersion").asText() + "/" + manifest.path("kind").asText();
        Class<? extends HasMetadata> c = TYPES.get(type);
        if (c == null) {
            throw new AssertionError(name + ": no API type " + type + " expected here");
        }
        HasMetadata resource;
        try {
            resource = STRICT.treeToValue(manifest, c);
        } catch (Exception e) {
            throw new AssertionError(name + ": not a valid " + type + ": " + e.getMessage(), e);
        }
        List<String> unknown = new ArrayList<>();
        collectUnknown(resource, c.getSimpleName(), unknown);
        if (!unknown.isEmpty()) {
            throw new AssertionError(name + ": fields unknown to " + type + ": " + unknown);
        }
        return resource;
    }

    /** Walks the JSON properties of fabric8 objects, collecting the paths of what landed in additionalProperties. */
    private static void collectUnknown(Object value, String path, List<String> out) {
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                collectUnknown(item, path + "[" + i++ + "]", out);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknown(v, path + "." + k, out));
        } else if (value != null && value.getClass().getPackageName().startsWith("io.fabric8.")) {
            for (Method getter : value.getClass().getMethods()) {
                if (getter.getParameterCount() > 0) {
                    continue;
                }
                if (getter.getName().equals("getAdditionalProperties")) {
                    ((Map<?, ?>) invoke(getter, value)).keySet().forEach(k -> out.add(path + "." + k));
                } else if (getter.isAnnotationPresent(JsonProperty.class)) {
                    collectUnknown(invoke(getter, value), path + "." + getter.getAnnotation(JsonProperty.class)
                            .value(), out);
                }
            }
        }
    }

    private static Object invoke(Method getter, Object target) {
        try {
            return getter.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(getter.toString(), e);
        }
    }
}
