// The in-memory per-user quota ledger shared by the memory KV and files services (R40: one quota
// per user across scopes; 5 GB default). Committed bytes are charged when a write lands and
// refunded on delete/expiry; `files/upload_begin` holds a soft reservation that lapses after
// 600 s (R46); KV rows are counted as entries (R133). Whether a change fits is the shared rule
// of storage/quota.ts; this file only keeps the numbers.
import { STORAGE_QUOTA_BYTES } from "../../storage/limits.js";
import { checkQuotaBytes, checkQuotaEntries } from "../../storage/quota.js";
import type { QuotaUsage } from "../../storage/quota.js";

export type { QuotaUsage };

export interface QuotaReservation {
  readonly id: number;
  readonly userId: string;
  readonly bytes: number;
  readonly expiresAtMs: number;
}

export interface StorageQuotaOptions {
  /** Default limit when a call passes none. */
  limitBytes?: number;
  /** Default KV-row limit when a call passes none (default: none). */
  limitEntries?: number;
  /** Epoch ms, for reservation expiry. */
  clock?: () => number;
}

export class StorageQuota {
  readonly limitBytes: number;
  readonly limitEntries: number;
  readonly #clock: () => number;
  readonly #used = new Map<string, number>();
  readonly #entries = new Map<string, number>();
  readonly #reservations = new Map<string, Map<number, QuotaReservation>>();
  #nextId = 1;

  constructor(options: StorageQuotaOptions = {}) {
    this.limitBytes = options.limitBytes ?? STORAGE_QUOTA_BYTES;
    this.limitEntries = options.limitEntries ?? Number.POSITIVE_INFINITY;
    this.#clock = options.clock ?? Date.now;
  }

  usage(userId: string): QuotaUsage {
    return { usedBytes: this.#used.get(userId) ?? 0, reservedBytes: this.#reserved(userId) };
  }

  /** The user's KV rows, across scopes. */
  entries(userId: string): number {
    return this.#entries.get(userId) ?? 0;
  }

  /** Throws -32024 when `addEntries` more KV rows do not fit; changes nothing. */
  checkEntries(userId: string, addEntries: number, limitEntries = this.limitEntries): void {
    checkQuotaEntries(this.entries(userId), addEntries, limitEntries);
  }

  /** Counts KV rows created (positive) or dropped (negative); check first with checkEntries. */
  countEntries(userId: string, deltaEntries: number): void {
    this.#entries.set(userId, Math.max(0, (this.#entries.get(userId) ?? 0) + deltaEntries));
  }

  /**
   * Charges a committed change of `deltaBytes` (negative refunds). A positive delta must fit
   * next to the user's other usage and live reservations, else -32024 and nothing changes.
   * `excluding` is a reservation of this same write, which the charge replaces.
   */
  charge(
    userId: string,
    deltaBytes: number,
    limitBytes = this.limitBytes,
    excluding?: QuotaReservation,
  ): void {
    const used = this.#used.get(userId) ?? 0;
    if (deltaBytes > 0) {
      const usage = this.usage(userId);
      usage.reservedBytes -= excluding ? this.#live(excluding) : 0;
      checkQuotaBytes(usage, deltaBytes, limitBytes);
    }
    if (excluding) this.release(excluding);
    this.#used.set(userId, Math.max(0, used + deltaBytes));
  }

  /**
   * Holds `bytes` for `ttlMs`; -32024 when they do not fit. Zero bytes reserve nothing.
   * `replacing` is released only when the new reservation fits in its place.
   */
  reserve(
    userId: string,
    bytes: number,
    ttlMs: number,
    limitBytes = this.limitBytes,
    replacing?: QuotaReservation,
  ): QuotaReservation {
    const reservation: QuotaReservation = {
      id: this.#nextId++,
      userId,
      bytes: Math.max(0, bytes),
      expiresAtMs: this.#clock() + ttlMs,
    };
    const usage = this.usage(userId);
    usage.reservedBytes -= replacing ? this.#live(replacing) : 0;
    checkQuotaBytes(usage, reservation.bytes, limitBytes);
    if (replacing) this.release(replacing);
    if (reservation.bytes === 0) return reservation;
    let forUser = this.#reservations.get(userId);
    if (forUser === undefined) {
      forUser = new Map();
      this.#reservations.set(userId, forUser);
    }
    forUser.set(reservation.id, reservation);
    return reservation;
  }

  release(reservation: QuotaReservation): void {
    const forUser = this.#reservations.get(reservation.userId);
    forUser?.delete(reservation.id);
    if (forUser?.size === 0) this.#reservations.delete(reservation.userId);
  }

  #live(reservation: QuotaReservation): number {
    const held = this.#reservations.get(reservation.userId)?.get(reservation.id);
    return held !== undefined && held.expiresAtMs > this.#clock() ? held.bytes : 0;
  }

  #reserved(userId: string): number {
    const forUser = this.#reservations.get(userId);
    if (forUser === undefined) return 0;
    const now = this.#clock();
    let total = 0;
    for (const [id, reservation] of forUser) {
      if (reservation.expiresAtMs <= now) forUser.delete(id);
      else total += reservation.bytes;
    }
    return total;
  }
}
