/**
 * One value per instance (per core, per database), built on first use: prepared statements,
 * limiters, caches. Keyed weakly, so a closed test instance takes its values with it.
 */
export function perInstance<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = build(key);
      cache.set(key, value);
    }
    return value;
  };
}
