// The render pool and the stored images of delivery (DELIVERY.md §5.3).
export { createRenderPool, PART_JOBS, PART_TIMEOUT_MS, type WorkerPoolOptions } from './pool';
export { renderJobs, tagJob } from './render';
export {
  collectImages,
  IMAGE_KEEP_MS,
  type ImageToStore,
  loadImage,
  loadImageByVer,
  type StoredImage,
  storeImages,
} from './repository';
export * from './types';
