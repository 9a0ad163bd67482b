#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform-specific optional packages that this machine's npm
 * registry mirror does not serve (for example @swc/core-darwin-arm64). npm leaves them out of the
 * lock it writes, and `npm ci` then refuses the lock as out of sync. Each missing package gets the
 * entry npm would have written — optional, tagged with its os/cpu/libc — so that `npm ci` skips it
 * on every other platform without fetching anything.
 *
 * Run after changing dependencies: `npm install && node scripts/complete-lockfile.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { stdout } from 'node:process';
import { URL } from 'node:url';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  mips64el: 'mips64el',
};

/** os/cpu/libc from a platform package name such as `resolver-binding-linux-arm-musleabihf`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.map((part) => CPU[part]).find(Boolean);
  if (os === undefined || cpu === undefined) return undefined;
  const libc = os !== 'linux' ? undefined : parts.some((part) => part.startsWith('musl')) ? 'musl' : 'glibc';
  return { os: [os], cpu: [cpu], ...(libc === undefined ? {} : { libc: [libc] }) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  if (path === '' || entry.optionalDependencies === undefined) continue;
  for (const [name, version] of Object.entries(entry.optionalDependencies)) {
    const at = `node_modules/${name}`;
    if (packages[at] !== undefined) continue;
    const platform = platformOf(name);
    if (platform === undefined)
      throw new Error(`${name} (optional dependency of ${path}) is missing from the lock and is not a platform package; run npm install.`);
    packages[at] = { version, ...platform, ...(entry.dev ? { dev: true } : {}), optional: true };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
stdout.write(`complete-lockfile: added ${added} platform-specific optional package entr${added === 1 ? 'y' : 'ies'}.\n`);
