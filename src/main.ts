/**
 * Entry point: parse the configuration, open the durable state, wire the
 * services by hand, serve HTTP with the Node adapter, and shut down cleanly on
 * SIGINT/SIGTERM. `npm start` runs this file.
 */
import { mkdirSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import type { Services } from './services.ts';
import { openState } from './state/open.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });

  const state = await openState(config, log);
  const services: Services = { config, log, state, now: () => Date.now() };
  const app = createApp(services);

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info('listening', { host: config.host, port: info.port, dataDir: config.dataDir });
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    server.close();
    await state.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`fatal: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
