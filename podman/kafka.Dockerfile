# A Kafka broker image for hosts that reach no image registry (docs/DEPLOYMENT.md, "Podman without a registry"), in
# place of apache/kafka, with the part of its contract that docker-compose.yml and k8s/ use: KAFKA_<KEY> variables
# as the broker's <key> (lower case, '_' as '.', '__' as '_', '___' as '-'), CLUSTER_ID to format the storage at
# the first start, and /opt/kafka/bin/kafka-broker-api-versions.sh and kafka-topics.sh. The broker's jars are those
# of the project's local environment (module environment-artifacts: the POM's kafka.version).
#   podman build --network host -f podman/kafka.Dockerfile -t apache/kafka:4.4.0 .
ARG BUILD_IMAGE=localhost/tracesync-build-base:bookworm
ARG RUNTIME_IMAGE=localhost/tracesync-runtime-base:bookworm

FROM ${BUILD_IMAGE} AS jars
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -pl environment-artifacts dependency:copy-dependencies \
        -DexcludeTypes=tar.gz -DoutputDirectory=/opt/kafka/libs

FROM ${RUNTIME_IMAGE}
COPY --from=jars /opt/kafka/libs /opt/kafka/libs
COPY podman/kafka/ /opt/kafka/bin/
RUN chmod 0755 /opt/kafka/bin/* && mkdir -p /var/lib/kafka
VOLUME ["/var/lib/kafka"]
ENTRYPOINT ["/opt/kafka/bin/start"]
