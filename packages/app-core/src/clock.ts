/** Epoch milliseconds. Injected everywhere time matters so tests reach expiry without sleeping. */
export type Clock = () => number;

export const SYSTEM_CLOCK: Clock = () => Date.now();
