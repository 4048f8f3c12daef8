/** autocannon ships no types; bench/lib/load.ts declares the part it uses. */
declare module 'autocannon' {
  const autocannon: unknown;
  export default autocannon;
}
