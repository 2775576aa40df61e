/**
 * Uploads a file to a page's attachments with XMLHttpRequest, which (unlike fetch) reports
 * upload progress. Answers the attachment; a refusal is an Error with the server's words.
 */
export interface Uploaded {
  id: string;
  filename: string;
  contentType: string;
  size: number;
}

export function uploadFile(pageId: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/pages/${encodeURIComponent(pageId)}/attachments`);
    xhr.setRequestHeader("X-Requested-With", "Cairn");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the status says enough */
      }
      if (xhr.status === 201) resolve(body as unknown as Uploaded);
      else reject(new Error(String(body.detail ?? body.title ?? `The upload failed (${xhr.status}).`)));
    };
    xhr.onerror = () => reject(new Error("The upload failed: Cairn could not be reached. Check your connection and try again."));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
