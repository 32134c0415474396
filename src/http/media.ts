/** The media types the package's servers read as JSON: `application/json` and any `+json` suffix (RFC 6839). */
const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** True for a JSON media type (parameters such as `; charset=utf-8` allowed after it). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MEDIA_TYPE.test(contentType);
}
