package org.iolab.storage;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;

/**
 * A writable file whose syncs ({@code force}, {@code forceRange}) fail while a flag is set (or once, as an interrupt
 * stops them); all else goes through.
 */
public final class FailingForces {
    private FailingForces() {
    }

    /**
     * @param d the file
     * @param failing while true, every sync throws
     * @return {@code d}, its syncs failing with an {@link IolabException} caused by an I/O error, as a device's EIO
     */
    public static StorageFile wrap(StorageFile d, AtomicBoolean failing) {
        return wrap(d, failing, new IOException("Input/output error"));
    }

    /**
     * An opener's body ({@code (f, w) -> FailingForces.open(backend, f, w, failing)}): a file opened for writing has
     * its syncs failing while {@code failing} is set, one opened to read is {@code backend}'s own.
     *
     * @param backend the backend that opens the file
     * @param file the file
     * @param writable open for writing
     * @param failing while true, every sync of a writable file throws (an I/O error)
     * @return the open file
     */
    public static StorageFile open(Backend backend, java.nio.file.Path file, boolean writable, AtomicBoolean failing) {
        return open(backend, file, writable, failing, new IOException("Input/output error"));
    }

    /**
     * {@link #open(Backend, java.nio.file.Path, boolean, AtomicBoolean)}, the failing syncs' cause given.
     *
     * @param cause the cause of the {@link IolabException} thrown, or null for none
     * @return the open file
     */
    public static StorageFile open(Backend backend, java.nio.file.Path file, boolean writable, AtomicBoolean failing,
            Throwable cause) {
        return writable ? wrap(backend.open(file, true), failing, cause) : backend.open(file, false);
    }

    /**
     * @param d the file
     * @param failing while true, every sync throws
     * @param cause the cause of the {@link IolabException} thrown, or null for none
     * @return {@code d}, its syncs failing as given
     */
    public static StorageFile wrap(StorageFile d, AtomicBoolean failing, Throwable cause) {
        return wrap(d, failing::get, false, cause);
    }

    /**
     * An opener's body: a file opened for writing has its next sync after {@code armed} is set (once) fail as one that
     * its thread's interrupt stopped inside the fsync: the thread's interrupt status set (a backend gives it back) and
     * an {@link IolabException} caused by {@link java.nio.channels.ClosedByInterruptException}.
     *
     * @return the open file
     */
    public static StorageFile openInterrupted(Backend backend, java.nio.file.Path file, boolean writable,
            AtomicBoolean armed) {
        return writable ? wrap(backend.open(file, true), () -> armed.getAndSet(false), true,
                new java.nio.channels.ClosedByInterruptException()) : backend.open(file, false);
    }

    private static StorageFile wrap(StorageFile d, java.util.function.BooleanSupplier fails, boolean interrupt,
            Throwable cause) {
        return (StorageFile) Proxy.newProxyInstance(StorageFile.class.getClassLoader(),
                new Class<?>[] {StorageFile.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("force") && fails.getAsBoolean()) {
                        if (interrupt) {
                            Thread.currentThread().interrupt();
                        }
                        throw cause == null ? new IolabException("cannot sync " + d.path() + " (injected)")
                                : new IolabException("cannot sync " + d.path() + " (injected)", cause);
                    }
                    try {
                        return method.invoke(d, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
