/**
 * The website connector (`intranet_online`): crawls an intranet or public site from start
 * URLs and sitemaps (crawl.ts), honouring robots.txt (robots.ts), within the SSRF guard and
 * its intranet allow-list (fetcher.ts), and makes each page a `webpage` document of its main
 * content (page.ts), each linked PDF or Office file a `file` document.
 */
import type { ConnectorModule, RunContext, SourceItem } from '../types.ts';
import { crawl } from './crawl.ts';
import { SiteFetcher } from './fetcher.ts';
import { WebsiteCredentials, WebsiteSettings } from './settings.ts';

function items(run: RunContext<WebsiteSettings, WebsiteCredentials>): AsyncIterable<SourceItem> {
  return crawl(run, new SiteFetcher(run.settings, run.credentials, run.config, run.signal));
}

export const websiteConnector: ConnectorModule<WebsiteSettings, WebsiteCredentials> = {
  type: 'intranet_online',
  category: 'intranet_online',
  description: 'pages of an intranet or public website: start URLs and sitemaps, robots.txt honoured',
  settings: WebsiteSettings,
  credentials: WebsiteCredentials,
  items,
};
