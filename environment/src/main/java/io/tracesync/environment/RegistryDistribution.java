package io.tracesync.environment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/** The Apicurio Registry distribution, unpacked once per version: into a temporary directory, then renamed. */
final class RegistryDistribution {
    static final String LAUNCHER = "quarkus-run.jar";

    private RegistryDistribution() {}

    /** {@code target}, holding the unpacked {@code archive}; unpacks it unless a complete copy is already there. */
    static Path unpacked(Path archive, Path target) throws IOException {
        if (Files.isRegularFile(target.resolve(LAUNCHER))) {
            return target;
        }
        Files.createDirectories(target.getParent());
        Path temporary = Files.createTempDirectory(target.getParent(), target.getFileName() + ".unpacking-");
        try {
            untar(archive, temporary);
            if (!Files.isRegularFile(temporary.resolve(LAUNCHER))) {
                throw new IOException(archive + " has no " + LAUNCHER + " at its top level");
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
            if (!Files.isRegularFile(target.resolve(LAUNCHER))) {
                throw new IOException("cannot move the unpacked registry to " + target, e);
            }
            // another process unpacked it meanwhile
        } finally {
            FileTrees.delete(temporary);
        }
        return target;
    }

    private static void untar(Path archive, Path into) throws IOException {
        try (InputStream file = Files.newInputStream(archive);
             TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(file, 1 << 16))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                Path path = into.resolve(entry.getName()).normalize();
                if (!path.startsWith(into)) {
                    throw new IOException(archive + ": entry outside the archive root: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(path);
                } else if (entry.isFile()) {
                    Files.createDirectories(path.getParent());
                    Files.copy(tar, path);
                }
            }
        }
    }
}
