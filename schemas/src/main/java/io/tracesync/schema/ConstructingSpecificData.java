package io.tracesync.schema;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * Avro's specific data model whose records of generated classes are created by a direct constructor call instead
 * of Avro's reflective {@code Constructor.newInstance}, which took a few percent of the stream thread's time
 * decoding trace events.
 */
final class ConstructingSpecificData extends SpecificData {

    ConstructingSpecificData(ClassLoader loader) {
        super(loader);
    }

    @Override
    public InstanceSupplier getNewRecordSupplier(Schema schema) {
        Class<?> c = getClass(schema);
        Supplier<?> constructor = c == null || SchemaConstructable.class.isAssignableFrom(c) ? null : constructor(c);
        return constructor == null ? super.getNewRecordSupplier(schema) : (old, s) -> constructor.get();
    }

    /** A {@link Supplier} calling c's public no-argument constructor, or null if it has none. */
    private static Supplier<?> constructor(Class<?> c) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodHandle ctor = lookup.findConstructor(c, MethodType.methodType(void.class));
            CallSite site = LambdaMetafactory.metafactory(lookup, "get", MethodType.methodType(Supplier.class),
                    MethodType.methodType(Object.class), ctor, MethodType.methodType(c));
            return (Supplier<?>) site.getTarget().invokeExact();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot bind the constructor of " + c.getName(), e);
        }
    }
}
