# syntax=docker/dockerfile:1
# The tracesync image: `docker build -t tracesync:0.1.0-SNAPSHOT .` (docs/DEPLOYMENT.md).

# The base images, overridable where these cannot be pulled (`--build-arg RUNTIME_IMAGE=...`): the build's needs a
# JDK 17 (the Maven wrapper brings Maven), the runtime's a Java 17 runtime on glibc as `java`, and apt-get.
ARG BUILD_IMAGE=maven:3.9.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre-noble

# Build stage: the application's shaded jar, built by the Maven wrapper exactly as on a developer's machine.
FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
# The cache mount keeps ~/.m2 between builds (BuildKit, the default builder of Docker Engine 23+ and Compose v2).
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -DskipTests -pl topology -am package

# The repository's command line (simulate, import, evaluate, ...), for docker-compose's simulator profile only:
# `docker build --target tools`. BuildKit builds these two stages only for that target, never for the image below.
FROM build AS build-tools
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -DskipTests -pl cli -am package

FROM ${RUNTIME_IMAGE} AS tools
COPY --from=build-tools /src/cli/target/tracesync-cli-0.1.0-SNAPSHOT-all.jar /app/tracesync-tools.jar
ENTRYPOINT ["java", "-jar", "/app/tracesync-tools.jar"]

# The production image (the default target, last): the application's jar only — run, replay, correct-spans.
# Runtime stage: a JRE on glibc (RocksDB's JNI library, used by the state stores, needs glibc, not musl).
FROM ${RUNTIME_IMAGE}
# curl for the health checks of docker-compose.yml; a user with a fixed uid, group 0 so that an arbitrary uid
# (OpenShift) can write the state directory too.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --gid 0 --home-dir /var/lib/tracesync --no-create-home tracesync \
    && mkdir -p /app /var/lib/tracesync \
    && chown 10001:0 /var/lib/tracesync \
    && chmod 0770 /var/lib/tracesync
COPY --from=build /src/topology/target/tracesync-topology-0.1.0-SNAPSHOT-all.jar /app/tracesync.jar
# Defaults for a container: state on the volume, the HTTP server (health, metrics, REST) on every interface.
ENV TRACESYNC_STATE_DIR=/var/lib/tracesync \
    TRACESYNC_HTTP_HOST=0.0.0.0 \
    TRACESYNC_HTTP_PORT=8080
USER 10001
WORKDIR /var/lib/tracesync
VOLUME ["/var/lib/tracesync"]
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "/app/tracesync.jar"]
CMD ["run"]
