import { readAsset } from './assets.js';

let version: string | null = null;

/** The version of package.json, read where the program keeps its files (the checkout, or the single executable's assets). */
export function postmillVersion(): string {
  version ??= (JSON.parse(readAsset('package.json')) as { version: string }).version;
  return version;
}
