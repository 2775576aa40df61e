/**
 * An image in the reading view. One from another site that the instance's image policy does not
 * let through (content/image-hosts.ts; the server's Content-Security-Policy follows the same
 * rule) is drawn as a link with its description, so readers see where it was instead of a
 * broken image and the browser logs nothing. Without a policy (the server's own renderings,
 * exports) every safe image is drawn.
 */
import { createContext, useContext } from "react";
import { imageShown, type ImageHostPolicy } from "../../../../content/image-hosts";

export const ImagePolicyContext = createContext<ImageHostPolicy | null>(null);

export function PageImage({
  src,
  alt,
  title,
  width,
  height,
}: {
  src: string;
  alt: string;
  title?: string;
  width?: number;
  height?: number;
}) {
  const policy = useContext(ImagePolicyContext);
  if (policy && !imageShown(src, policy)) {
    return (
      <a
        className="image-elsewhere"
        href={src}
        target="_blank"
        rel="noopener noreferrer nofollow"
        title="An image from another site, not shown here: opens it"
      >
        {alt || title || fileName(src)}
      </a>
    );
  }
  return <img src={src} alt={alt} title={title} width={width} height={height} loading="lazy" />;
}

function fileName(src: string): string {
  const path = src.split(/[?#]/)[0] ?? "";
  const last = path.slice(path.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(last) || "Image";
  } catch {
    return last || "Image";
  }
}
