/**
 * Uploaded files: POST /user_uploads (with thumbnails for images), serving
 * them to those who may see them (and by temporary URL), GET/DELETE
 * /attachments with their `attachment` events, claiming uploads for the
 * messages that link them, and deleting the ones none claims in time.
 */
export { listAttachments, removeAttachment } from './attachments.js';
export { claimAttachments, updateAttachmentReferences } from './claim.js';
export { serveThumbnail, serveUpload } from './serve.js';
export { serveTemporaryUpload, temporaryUploadUrl } from './temporary-urls.js';
export { makeThumbnails } from './thumbnails.js';
export { deleteOldUnclaimedUploads, UNCLAIMED_UPLOAD_GRACE_MS } from './unclaimed.js';
export { uploadFile } from './upload.js';
