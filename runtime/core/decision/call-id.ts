/**
 * Call ids: each decision gets a sequence number (one increment), and its id — the one the decision log's
 * event and the `x-permissions-call-id` header carry — is made from that number only when read. An id is an
 * RFC 9562 UUID version 8: 74 bits chosen at random once per process, then the sequence, so ids are unique
 * across the instances of an application without a random draw per decision.
 */

/** The sequence of the last decision of this process. */
let lastSequence = 0;
/** The random part of this process's ids (`xxxxxxxx-xxxx-8xxx-`, and the 14 random bits of the fourth group), drawn on first use. */
let processPart: { readonly head: string; readonly clock: number } | undefined;

/**
 * The sequence number of a new decision.
 *
 * @example
 * ```ts
 * const sequence = nextCallSequence(); // 1, 2, 3, …
 * ```
 */
export function nextCallSequence(): number {
  return ++lastSequence;
}

/** Random bits from Web Crypto (Node.js and browsers); where it is missing (an insecure browser context), from Math.random. */
function randomWords(count: number): number[] {
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint16Array) => Uint16Array } }).crypto;
  const words = new Uint16Array(count);
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(words);
  else for (let i = 0; i < count; i++) words[i] = Math.floor(Math.random() * 0x10000);
  return [...words];
}

const hex = (value: number, digits: number): string => value.toString(16).padStart(digits, '0');

function drawProcessPart(): { readonly head: string; readonly clock: number } {
  const [a = 0, b = 0, c = 0, d = 0, e = 0] = randomWords(5);
  return { head: `${hex(a, 4)}${hex(b, 4)}-${hex(c, 4)}-8${hex(d & 0xfff, 3)}-`, clock: e & 0x3fff };
}

/**
 * The call id of the decision with `sequence`: the low 48 bits of the sequence in the last group, the rest of it
 * mixed into the fourth, so ids do not repeat before 2^53 decisions.
 *
 * @example
 * ```ts
 * callIdOf(1); // '3b241101-e2bb-8255-8caf-000000000001'
 * ```
 */
export function callIdOf(sequence: number): string {
  const part = (processPart ??= drawProcessPart());
  const high = Math.floor(sequence / 2 ** 48);
  const low = sequence - high * 2 ** 48;
  // 0b10 in the top two bits: the RFC 9562 variant.
  return `${part.head}${hex(0x8000 | ((part.clock ^ high) & 0x3fff), 4)}-${hex(low, 12)}`;
}
