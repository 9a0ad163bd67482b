import { serve } from '@hono/node-server';
import { app } from './app.js';

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
