package io.tracesync.environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * TLS and SASL/SCRAM listeners for a {@link LocalKafka}, beside its plaintext one: a self-signed certificate for
 * 127.0.0.1 made with the JDK's keytool, and one SCRAM-SHA-512 user created when the storage is formatted. For
 * checking that a client's standard security properties pass through; not a production setup.
 */
public record SecureListeners(Path keystore, Path truststore, String storePassword, String user, String password) {

    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);
    static final String MECHANISM = "SCRAM-SHA-512";

    /** A fresh key pair and trust store in {@code dir}, random store password, and the given SCRAM user. */
    public static SecureListeners create(Path dir, String user, String password) throws IOException {
        Files.createDirectories(dir);
        String storePassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
        Path keystore = dir.resolve("broker-keystore.p12");
        Path truststore = dir.resolve("truststore.p12");
        Path certificate = dir.resolve("broker.pem");
        for (Path p : List.of(keystore, truststore, certificate)) {
            Files.deleteIfExists(p);
        }
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Path log = dir.resolve("keytool.log");
        ChildProcess.run("keytool", List.of(keytool, "-genkeypair", "-alias", "broker", "-keyalg", "RSA",
                "-keysize", "2048", "-validity", "30", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", storePassword, "-keypass", storePassword), dir, log, KEYTOOL_TIMEOUT);
        ChildProcess.run("keytool", List.of(keytool, "-exportcert", "-rfc", "-alias", "broker",
                "-keystore", keystore.toString(), "-storepass", storePassword, "-file", certificate.toString()),
                dir, log, KEYTOOL_TIMEOUT);
        ChildProcess.run("keytool", List.of(keytool, "-importcert", "-noprompt", "-alias", "broker",
                "-file", certificate.toString(), "-storetype", "PKCS12", "-keystore", truststore.toString(),
                "-storepass", storePassword), dir, log, KEYTOOL_TIMEOUT);
        return new SecureListeners(keystore, truststore, storePassword, user, password);
    }

    /** The StorageTool argument that creates the SCRAM user. */
    List<String> formatArguments() {
        return List.of("--add-scram", MECHANISM + "=[name=" + user + ",password=" + password + "]");
    }

    /** The broker's settings for its SSL and SASL_SSL listeners. */
    void configure(Properties broker) {
        broker.setProperty("ssl.keystore.type", "PKCS12");
        broker.setProperty("ssl.keystore.location", keystore.toAbsolutePath().toString());
        broker.setProperty("ssl.keystore.password", storePassword);
        broker.setProperty("ssl.key.password", storePassword);
        broker.setProperty("ssl.client.auth", "none");
        broker.setProperty("sasl.enabled.mechanisms", MECHANISM);
        broker.setProperty("listener.name.sasl_ssl." + MECHANISM.toLowerCase(java.util.Locale.ROOT)
                + ".sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
    }

    /** A client's settings for the SSL listener: encryption, the broker's certificate trusted. */
    public Map<String, String> sslClient() {
        return Map.of(
                "security.protocol", "SSL",
                "ssl.truststore.type", "PKCS12",
                "ssl.truststore.location", truststore.toAbsolutePath().toString(),
                "ssl.truststore.password", storePassword);
    }

    /** A client's settings for the SASL_SSL listener as {@code user} with {@code clientPassword}. */
    public Map<String, String> saslSslClient(String clientPassword) {
        return Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", MECHANISM,
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + user + "\" password=\"" + clientPassword + "\";",
                "ssl.truststore.type", "PKCS12",
                "ssl.truststore.location", truststore.toAbsolutePath().toString(),
                "ssl.truststore.password", storePassword);
    }

    @Override
    public String toString() {
        return "SecureListeners[keystore=" + keystore + ", truststore=" + truststore + ", user=" + user + "]";
    }
}
