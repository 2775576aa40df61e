/** Uploads a file to a page's attachments (api/upload.ts), reporting progress. Answers the attachment. */
import { upload } from "../../api/upload";

export interface Uploaded {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}

export function uploadFile(pageId: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> {
  return upload<Uploaded>({ method: "POST", url: `/api/pages/${encodeURIComponent(pageId)}/attachments`, file, okStatus: 201, onProgress });
}
