// Per-user byte accounting shared by the offline KV and files services (R40: one quota per
// user across scopes; 5 GB default). Committed bytes are charged when a write lands and refunded
// on delete/expiry; `files/upload_begin` holds a soft reservation that lapses after 600 s (R46).
import { STORAGE_ERRORS } from "@anna-ai/app-schema/errors";
import { catalogError } from "../service-error.js";
import { STORAGE_QUOTA_BYTES } from "./storage-limits.js";

export interface QuotaUsage {
  usedBytes: number;
  reservedBytes: number;
}

export interface QuotaReservation {
  readonly id: number;
  readonly userId: string;
  readonly bytes: number;
  readonly expiresAtMs: number;
}

export interface StorageQuotaOptions {
  /** Default limit when a call passes none. */
  limitBytes?: number;
  /** Epoch ms, for reservation expiry. */
  clock?: () => number;
}

export class StorageQuota {
  readonly limitBytes: number;
  readonly #clock: () => number;
  readonly #used = new Map<string, number>();
  readonly #reservations = new Map<string, Map<number, QuotaReservation>>();
  #nextId = 1;

  constructor(options: StorageQuotaOptions = {}) {
    this.limitBytes = options.limitBytes ?? STORAGE_QUOTA_BYTES;
    this.#clock = options.clock ?? Date.now;
  }

  usage(userId: string): QuotaUsage {
    return { usedBytes: this.#used.get(userId) ?? 0, reservedBytes: this.#reserved(userId) };
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
      const reserved = this.#reserved(userId) - (excluding ? this.#live(excluding) : 0);
      if (used + reserved + deltaBytes > limitBytes) {
        throw this.#exceeded(userId, deltaBytes, limitBytes);
      }
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
    const used = this.#used.get(userId) ?? 0;
    const reserved = this.#reserved(userId) - (replacing ? this.#live(replacing) : 0);
    if (reservation.bytes > 0 && used + reserved + reservation.bytes > limitBytes) {
      throw this.#exceeded(userId, reservation.bytes, limitBytes);
    }
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

  #exceeded(userId: string, bytes: number, limitBytes: number) {
    const { usedBytes, reservedBytes } = this.usage(userId);
    return catalogError(
      STORAGE_ERRORS.QUOTA_EXCEEDED,
      `storage quota exceeded: ${usedBytes} bytes used and ${reservedBytes} reserved of ${limitBytes}; this write needs ${bytes} more. Delete keys or files to free space`,
      { usedBytes, reservedBytes, limitBytes, requestedBytes: bytes },
    );
  }
}
