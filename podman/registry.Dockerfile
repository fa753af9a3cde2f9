# An Apicurio Registry image for hosts that reach no image registry (docs/DEPLOYMENT.md, "Podman without a
# registry"), in place of apicurio/apicurio-registry: the distribution of the project's local environment (module
# environment-artifacts: the POM's apicurio.version) on a Java 21 runtime, configured as that image is, by
# APICURIO_* and QUARKUS_* variables; the API on 8080, health on the management port 9000, curl for health checks.
#   podman build --network host -f podman/registry.Dockerfile -t apicurio/apicurio-registry:3.3.3 .
ARG BUILD_IMAGE=localhost/tracesync-build-base:bookworm
ARG RUNTIME_IMAGE=localhost/tracesync-registry-base:trixie

FROM ${BUILD_IMAGE} AS distribution
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -pl environment-artifacts dependency:copy-dependencies \
        -DincludeTypes=tar.gz -DoutputDirectory=/tmp/dist \
    && mkdir -p /opt/apicurio \
    && tar -xzf /tmp/dist/apicurio-registry-app-*-all.tar.gz -C /opt/apicurio

FROM ${RUNTIME_IMAGE}
COPY --from=distribution /opt/apicurio /opt/apicurio
USER 1001
EXPOSE 8080 9000
ENTRYPOINT ["java", "-jar", "/opt/apicurio/quarkus-run.jar"]
