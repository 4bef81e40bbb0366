import { test } from 'node:test';
import { startServer } from '/work/main/test/helpers/server.ts';
test('probe', async () => {
  const s = await startServer({});
  const r = await fetch(`${s.url}/openapi.json`);
  console.log(r.status, (await r.text()).slice(0, 300));
  console.log(JSON.stringify(s.logs.filter((l) => (l.level as number) >= 40), null, 1).slice(0, 3000));
  await s.close();
});
