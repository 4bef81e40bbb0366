import type { Migration } from 'kysely';
import * as initial from './0001-initial.migration.ts';
import * as fulfillment from './0002-fulfillment.migration.ts';
import * as oauth from './0003-oauth.migration.ts';
import * as account from './0004-account.migration.ts';
import * as pushPolicy from './0005-push-policy.migration.ts';
import * as whatsappSettings from './0006-whatsapp-settings.migration.ts';
import * as orderLife from './0007-order-life.migration.ts';
import * as pushGiveUp from './0008-push-give-up.migration.ts';
import * as clientMetadata from './0009-client-metadata-documents.migration.ts';
import * as keyScopes from './0010-key-scopes.migration.ts';
import * as whatsappSenders from './0011-whatsapp-senders.migration.ts';
import * as outboxAndWebhooks from './0012-outbox-and-webhooks.migration.ts';
import * as platformConnections from './0013-platform-connections.migration.ts';
import * as productImages from './0014-product-images.migration.ts';
import * as storeTrust from './0015-store-trust.migration.ts';
import * as confirmationAndRisk from './0016-confirmation-and-risk.migration.ts';
import * as hotPath from './0017-hot-path.migration.ts';
import * as claimByDestination from './0018-claim-by-destination.migration.ts';
import * as sharedAcrossInstances from './0019-shared-across-instances.migration.ts';
import * as postgresBaseline from './postgres/0001-postgres-baseline.migration.ts';
import * as postgresSharedAcrossInstances from './postgres/0019-shared-across-instances.migration.ts';

/** Listed explicitly, in order (STYLE: migrations frozen, listed explicitly). */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-fulfillment': fulfillment,
  '0003-oauth': oauth,
  '0004-account': account,
  '0005-push-policy': pushPolicy,
  '0006-whatsapp-settings': whatsappSettings,
  '0007-order-life': orderLife,
  '0008-push-give-up': pushGiveUp,
  '0009-client-metadata-documents': clientMetadata,
  '0010-key-scopes': keyScopes,
  '0011-whatsapp-senders': whatsappSenders,
  '0012-outbox-and-webhooks': outboxAndWebhooks,
  '0013-platform-connections': platformConnections,
  '0014-product-images': productImages,
  '0015-store-trust': storeTrust,
  '0016-confirmation-and-risk': confirmationAndRisk,
  '0017-hot-path': hotPath,
  '0018-claim-by-destination': claimByDestination,
  '0019-shared-across-instances': sharedAcrossInstances,
};

/**
 * PostgreSQL's (issue 28): the schema of 0001–0018 in one step, then each later change under the
 * same name as SQLite's (test/db/schema-parity.test.ts compares the two schemas).
 */
export const postgresMigrations: Record<string, Migration> = {
  '0001-postgres-baseline': postgresBaseline,
  '0019-shared-across-instances': postgresSharedAcrossInstances,
};
