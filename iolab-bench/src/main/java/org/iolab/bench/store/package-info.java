/**
 * Bruno's employee benchmark (issue 5, item 7) over iolab's record store and the JVM's embedded stores.
 *
 * <p>{@link org.iolab.bench.store.EmployeeWorkload} is the workload and its checks;
 * {@link org.iolab.bench.store.KvEngine} the small interface every store is adapted to (one final class per
 * store, listed in {@link org.iolab.bench.store.Engines}); {@link org.iolab.bench.store.StoreBenchmark} the
 * JMH benchmark that times one phase of the workload per iteration; {@link org.iolab.bench.store.StoreLatency}
 * times each put of the first phase on its own (puts/s and percentiles per engine and durability level).
 */
package org.iolab.bench.store;
