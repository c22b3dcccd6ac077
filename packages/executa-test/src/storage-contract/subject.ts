// What a storage implementation hands the contract suite, and what the suite hands it: a clock
// the suite moves by hand (TTL and expiry tests never sleep) and the limits a case needs (small
// quotas, a small value cap). Each case builds a fresh store and closes it when the case ends.
import type { FilesService, StorageService } from "@anna-ai/executa-host";
import type { StorageLimits } from "@anna-ai/executa-host/storage";

export interface StorageContractSetup {
  /** Epoch ms. The store must read every timestamp, TTL and expiry from it. */
  clock: () => number;
  /** Limits this case needs; the rest stay the store's defaults. */
  limits: Partial<StorageLimits>;
}

export interface StorageUnderTest {
  storage: StorageService;
  /**
   * The files service sharing the store's quota, when the implementation has one; its cases
   * are skipped otherwise. Its `put_url` and `get_url` must answer real HTTP.
   */
  files?: FilesService;
  close?: () => Promise<void>;
}

export type MakeStorage = (
  setup: StorageContractSetup,
) => StorageUnderTest | Promise<StorageUnderTest>;

export interface StorageContractOptions {
  /** Register the files/* cases (default: true; they skip at run time when `files` is absent). */
  files?: boolean;
}
