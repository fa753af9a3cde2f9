package io.tracesync.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;

/** The repository's deployment files, and the build facts (from the POMs) they are compared with. */
final class DeployFiles {

    /** The repository root: tests run in the integration-tests module's directory. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private DeployFiles() {
    }

    static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    static String text(String relative) {
        try {
            return Files.readString(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String relative) {
        try {
            return YAML.readTree(path(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text at an XPath of a POM, e.g. {@code pom("pom.xml", "/project/properties/kafka.version")}. */
    static String pom(String relative, String xpath) {
        try {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(path(relative).toFile());
            return XPathFactory.newInstance().newXPath().evaluate(xpath, doc).strip();
        } catch (Exception e) {
            throw new IllegalStateException(relative + ": " + xpath, e);
        }
    }

    static String projectVersion() {
        return pom("pom.xml", "/project/version");
    }
}
