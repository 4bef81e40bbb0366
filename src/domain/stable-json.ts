// JSON with object keys sorted at every level: equal values hash equally (idempotency records).
// Written without recursion (issue 13 §2): a hostile body nested thousands of levels deep must not
// overflow the stack while it is hashed, whatever limit the parser applied.

type Task = { raw: string } | { value: unknown };

export function stableJson(value: unknown): string {
  const out: string[] = [];
  const stack: Task[] = [{ value }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('raw' in task) {
      out.push(task.raw);
      continue;
    }
    const v = task.value;
    if (v === null || typeof v !== 'object') {
      // Like JSON.stringify inside an array: undefined and functions become null.
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    const array = Array.isArray(v);
    const entries: [string | undefined, unknown][] = array
      ? v.map((item) => [undefined, item])
      : Object.keys(v)
          .sort()
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, (v as Record<string, unknown>)[k]]);
    // Pushed in reverse: the stack pops them in order.
    stack.push({ raw: array ? ']' : '}' });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      stack.push({ value: item });
      if (key !== undefined) stack.push({ raw: `${JSON.stringify(key)}:` });
      if (i > 0) stack.push({ raw: ',' });
    }
    stack.push({ raw: array ? '[' : '{' });
  }
  return out.join('');
}

/** Whether a parsed JSON value nests deeper than `max` objects or arrays (checked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v)) if (item !== null && typeof item === 'object') stack.push([item, depth + 1]);
  }
  return false;
}
