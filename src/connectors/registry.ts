/**
 * The connector types, one module each (the interface is in types.ts). A new type is one
 * folder under src/connectors/ exporting a ConnectorModule, plus one line here.
 */
import { filesConnector } from './files/index.ts';
import { gitConnector } from './git/index.ts';
import { mailConnector } from './mail/index.ts';
import type { ConnectorModule } from './types.ts';
import { websiteConnector } from './website/index.ts';

const MODULES: readonly ConnectorModule[] = [filesConnector, websiteConnector, mailConnector, gitConnector];

const byType = new Map(MODULES.map((m) => [m.type, m]));

/** The module of a connector type, or undefined. */
export const moduleOf = (type: string): ConnectorModule | undefined => byType.get(type);

/** Every connector type, in registration order. */
export const connectorTypes = (): string[] => MODULES.map((m) => m.type);

/** The type listing of the admin API. */
export const typeListing = () =>
  MODULES.map((m) => ({
    type: m.type,
    category: m.category,
    description: m.description,
    takes_credentials: m.credentials !== undefined,
  }));
