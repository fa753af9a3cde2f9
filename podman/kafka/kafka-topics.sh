#!/bin/sh
# As Kafka's script of this name (podman/kafka.Dockerfile).
exec java -cp '/opt/kafka/libs/*' org.apache.kafka.tools.TopicCommand "$@"
