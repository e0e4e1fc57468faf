// The render pool and the stored images of delivery (DELIVERY.md §5.3).
export { createRenderPool, PART_JOBS, PART_TIMEOUT_MS, PREVIEW_WORKERS, type WorkerPoolOptions } from './pool';
export { drawPreview, pngDataUrl, renderPreview, renderThumbnail } from './preview';
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
