package org.iolab.storage;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iolab.IolabException;

/** A writable file whose syncs ({@code force}, {@code forceRange}) fail while a flag is set; all else goes through. */
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
     * @param d the file
     * @param failing while true, every sync throws
     * @param cause the cause of the {@link IolabException} thrown, or null for none
     * @return {@code d}, its syncs failing as given
     */
    public static StorageFile wrap(StorageFile d, AtomicBoolean failing, Throwable cause) {
        return (StorageFile) Proxy.newProxyInstance(StorageFile.class.getClassLoader(),
                new Class<?>[] {StorageFile.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("force") && failing.get()) {
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
