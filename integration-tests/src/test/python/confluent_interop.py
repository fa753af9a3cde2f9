#!/usr/bin/python3
"""Confluent's Python client on tracesync topics: the interoperability check of the Java serde.

Run with Debian's /usr/bin/python3 and its packages python3-confluent-kafka, python3-avro and python3-requests.

  confluent_interop.py check
      exits 0 if the client can be imported, else 3 with the packages to install.
  confluent_interop.py consume REGISTRY BOOTSTRAP TOPIC COUNT [TIMEOUT_S]
      reads COUNT records of TOPIC from the start, decodes key and value with the registry's schemas, and prints
      each as a JSON line {"key": ..., "value": ...} (bytes as hex strings).
  confluent_interop.py produce REGISTRY BOOTSTRAP TOPIC SCHEMA_AVSC
      writes each JSON line of stdin (bytes as hex strings) as a value of TOPIC with the schema of SCHEMA_AVSC,
      registered under TOPIC-value, without key.

The Avro serde is confluent_kafka.schema_registry.avro (AvroSerializer/AvroDeserializer) when fastavro can be
imported, else the older confluent_kafka.avro MessageSerializer, which runs on python3-avro (Debian 12 has no
python3-fastavro). Both write and read the Confluent wire format through the Schema Registry REST API.
"""
import json
import sys
import time
import uuid

PACKAGES = "python3-confluent-kafka python3-avro python3-requests"


def fail(message, code=1):
    print(message, file=sys.stderr)
    sys.exit(code)


try:
    import confluent_kafka
except ImportError as e:
    fail("cannot import confluent_kafka (%s): apt-get install -y %s" % (e, PACKAGES), 3)


def avro_serde(registry):
    """(encode(topic, schema_str, record), decode(topic, data, is_key)) through the registry at URL registry."""
    try:
        import fastavro  # noqa: F401  the newer serializers need it
    except ImportError:
        return legacy_serde(registry)
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    client = SchemaRegistryClient({"url": registry})
    deserializer = AvroDeserializer(schema_registry_client=client)
    serializers = {}

    def encode(topic, schema_str, record):
        if schema_str not in serializers:
            serializers[schema_str] = AvroSerializer(schema_registry_client=client, schema_str=schema_str)
        return serializers[schema_str](record, SerializationContext(topic, MessageField.VALUE))

    def decode(topic, data, is_key):
        return deserializer(data, SerializationContext(topic, MessageField.KEY if is_key else MessageField.VALUE))

    print("serde: confluent_kafka.schema_registry.avro", file=sys.stderr)
    return encode, decode


def legacy_serde(registry):
    try:
        from confluent_kafka.avro import CachedSchemaRegistryClient, loads
        from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
    except ImportError as e:
        fail("cannot import confluent_kafka.avro (%s): apt-get install -y %s" % (e, PACKAGES), 3)
    serializer = MessageSerializer(CachedSchemaRegistryClient({"url": registry}))
    schemas = {}

    def encode(topic, schema_str, record):
        if schema_str not in schemas:
            schemas[schema_str] = loads(schema_str)
        return serializer.encode_record_with_schema(topic, schemas[schema_str], record)

    def decode(topic, data, is_key):
        return serializer.decode_message(data, is_key=is_key)

    print("serde: confluent_kafka.avro (python3-avro; no fastavro)", file=sys.stderr)
    return encode, decode


def to_json(value):
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


def from_json(record, schema):
    """The record of a JSON line: hex strings of the record's bytes fields back to bytes."""
    for field in schema["fields"]:
        types = field["type"] if isinstance(field["type"], list) else [field["type"]]
        value = record.get(field["name"])
        if "bytes" in types and isinstance(value, str):
            record[field["name"]] = bytes.fromhex(value)
    return record


def consume(registry, bootstrap, topic, count, timeout_s=60.0):
    _, decode = avro_serde(registry)
    consumer = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": "interop-" + str(uuid.uuid4()),
                                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    deadline = time.monotonic() + timeout_s
    seen = 0
    try:
        while seen < count:
            if time.monotonic() > deadline:
                fail("read %d of %d records of %s in %.0f s" % (seen, count, topic, timeout_s))
            message = consumer.poll(1.0)
            if message is None:
                continue
            if message.error():
                fail("consumer error: %s" % message.error())
            key = None if message.key() is None else decode(topic, message.key(), True)
            value = None if message.value() is None else decode(topic, message.value(), False)
            print(json.dumps({"key": to_json(key), "value": to_json(value)}), flush=True)
            seen += 1
    finally:
        consumer.close()


def produce(registry, bootstrap, topic, schema_path):
    encode, _ = avro_serde(registry)
    with open(schema_path, encoding="utf-8") as f:
        schema_str = f.read()
    schema = json.loads(schema_str)
    producer = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    errors = []

    def delivered(error, _message):
        if error is not None:
            errors.append(error)

    for line in sys.stdin:
        if line.strip():
            value = encode(topic, schema_str, from_json(json.loads(line), schema))
            producer.produce(topic, value=value, on_delivery=delivered)
    if producer.flush(30) > 0 or errors:
        fail("not delivered to %s: %s" % (topic, errors or "flush timed out"))


def main(args):
    if args[:1] == ["check"]:
        print("confluent_kafka %s, librdkafka %s" % (confluent_kafka.version()[0], confluent_kafka.libversion()[0]))
    elif args[:1] == ["consume"] and len(args) in (5, 6):
        consume(args[1], args[2], args[3], int(args[4]), *(float(a) for a in args[5:]))
    elif args[:1] == ["produce"] and len(args) == 5:
        produce(*args[1:])
    else:
        fail(__doc__, 2)


if __name__ == "__main__":
    main(sys.argv[1:])
