// The browser form of the smoke test: a module Web Worker. The page posts the package entry's URL; the worker
// posts back the report (or the error's text).
import { smoke } from './smoke_core.mjs';

self.onmessage = async ({ data: { packageUrl } }) => {
  try {
    self.postMessage({ report: await smoke(() => import(packageUrl)) });
  } catch (error) {
    self.postMessage({ error: String(error?.stack ?? error) });
  }
};
