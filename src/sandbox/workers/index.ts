/**
 * Background workers (simulated delivery, campaign sender, imports, exports,
 * webhook deliveries). Each subscribes to domain events or runs timers through
 * SandboxContext.later, and returns a stop function.
 */
import type { SandboxContext } from '../context.js';
import { startDeliveryWorker } from './delivery.js';
import { startImportRunner } from './import-runner.js';
import { startCampaignSender } from './campaign-sender.js';
import { startExportRunner } from './export-runner.js';
import { startWebhookDelivery } from './webhook-delivery.js';

export type Worker = (sb: SandboxContext) => () => void;

const workers: Worker[] = [startDeliveryWorker, startImportRunner, startCampaignSender, startExportRunner, startWebhookDelivery];

export function startWorkers(sb: SandboxContext): () => void {
  const stops = workers.map((start) => start(sb));
  return () => {
    for (const stop of stops) stop();
    sb.cancelTimers();
  };
}
