// The handle a `with…()` helper gives a test file for something its beforeAll starts: the file keeps it in a
// const at the top (hooks and tests run after the file is collected), and every property read goes to the thing
// once it is started. Read before the start, or after a start that failed, it says so instead of "undefined".

/** `now`: properties served from the start (e.g. a request log the helper keeps itself). */
export function startedLater<T extends object>(what: string, current: () => T | undefined, now: Partial<T> = {}): T {
  const target = (): T => {
    const value = current();
    if (!value) throw new Error(`${what} is not started (read before the file's beforeAll, or its start failed)`);
    return value;
  };
  return new Proxy({} as T, {
    get(_target, key) {
      if (key in now) return now[key as keyof T];
      const value = target();
      const property = Reflect.get(value, key, value);
      return typeof property === "function" ? property.bind(value) : property;
    },
    has: (_target, key) => key in now || key in target(),
  });
}
