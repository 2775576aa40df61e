/**
 * The request line and headers a hostile client sends for any operation: path parameters that
 * are junk or percent-encoding gone wrong, other spellings of the path, methods no route has,
 * query strings, credentials and headers that are malformed. Values go on the wire as written
 * (latin1); `must` marks what every operation gets, as in corpus.ts.
 */
import { KB } from "./corpus";

/** Path parameter values, already as they go on the request line (percent-encoding is the junk). */
export interface PathJunk {
  label: string;
  must?: boolean;
  value: string;
}
const pj = (label: string, value: string, must = false): PathJunk => ({ label, value, must });

export const PATH_JUNK: PathJunk[] = [
  pj("%", "%", true),
  pj("%E0%A4%A", "%E0%A4%A", true),
  pj("5,000 characters", "a".repeat(5_000), true),
  pj("__proto__", "__proto__", true),
  pj("%zz", "%zz"),
  pj("%00", "%00"),
  pj("id%00", "01900000-0000-7000-8000-000000000000%00"),
  pj("%FF%FE", "%FF%FE"),
  pj("encoded surrogate", "%ED%A0%80"),
  pj("encoded bidi", "%E2%80%AEabc"),
  pj("emoji", "%F0%9F%92%A9"),
  pj("..%2F..%2Fetc%2Fpasswd", "..%2F..%2Fetc%2Fpasswd"),
  pj("%2e%2e", "%2e%2e"),
  pj("overlong slash %C0%AF", "%C0%AF"),
  pj("constructor", "constructor"),
  pj("toString", "toString"),
  pj("-1", "-1"),
  pj("0", "0"),
  pj("1.5", "1.5"),
  pj("400 nines", "9".repeat(400)),
  pj("1e999", "1e999"),
  pj("NaN", "NaN"),
  pj("null", "null"),
  pj("SQL", "'%20OR%20'1'='1"),
  pj("markup", "%3Cscript%3E"),
  pj("latin1 bytes ff fe", "\xff\xfe"),
  pj("upper-case bogus id", "01900000-0000-7000-8000-00000000000A"),
  pj("id in braces", "%7B01900000-0000-7000-8000-000000000000%7D"),
  pj("*", "*"),
  pj(";", ";x=1"),
];

/** Other spellings of a route's path: routing must not fall through to something that breaks. */
export const PATH_SHAPES: Array<{ label: string; shape: (path: string) => string }> = [
  { label: "trailing slash", shape: (p) => `${p}/` },
  { label: "double slash", shape: (p) => p.replace("/api/", "/api//") },
  { label: "upper-case /API", shape: (p) => p.replace(/^\/api/, "/API") },
  { label: "dot segment", shape: (p) => p.replace("/api/", "/api/./") },
  { label: "dot-dot segment", shape: (p) => p.replace("/api/", "/api/x/../") },
  { label: "encoded slash", shape: (p) => p.replace(/\/([^/]*)$/, "%2F$1") },
  { label: "percent-encoded letter", shape: (p) => p.replace(/^\/api\/(\w)/, (_, c: string) => `/api/%${c.charCodeAt(0).toString(16)}`) },
  { label: "semicolon parameter", shape: (p) => `${p};jsessionid=x` },
];

/** Methods no route describes (HEAD and OPTIONS are answered from the others). */
export const METHODS = ["PATCH", "TRACE", "PROPFIND", "OPTIONS", "HEAD"];

/** Query values, as they go on the request line. */
export const QUERY_JUNK: PathJunk[] = [
  pj('"-4"', "-4", true),
  pj("abc", "abc", true),
  pj("empty", "", true),
  pj("%", "%", true),
  pj('"3"', "3"),
  pj('"9"', "9"),
  pj("0", "0"),
  pj("1.5", "1.5"),
  pj("1e3", "1e3"),
  pj("20 digits", "99999999999999999999"),
  pj("true", "true"),
  pj("yes", "yes"),
  pj("null", "null"),
  pj("%00", "%00"),
  pj("%E0%A4%A", "%E0%A4%A"),
  pj("20,000 characters", "a".repeat(20_000)),
  pj('search "', "%22"),
  pj("search NEAR(", "NEAR(a%20b"),
  pj("search *", "*"),
  pj("search -", "-"),
  pj("search ^", "%5Ex"),
  pj("search column", "title:x"),
  pj("search AND", "a%20AND"),
  pj("search (", "("),
  pj("latin1 bytes", "\xe9\xff"),
];

/** Whole query strings, for any operation (after the `?`). */
export const QUERY_STRINGS: PathJunk[] = [
  pj("__proto__[polluted]=1", "__proto__[polluted]=1&constructor[prototype][x]=1", true),
  pj("repeated parameter", "take=1&take=2&spaceId=a&spaceId=b&q=a&q=b"),
  pj("array parameter", "take[]=1&spaceId[]=x&q[]=y"),
  pj("&&&", "&&&=&"),
  pj("%=%", "%=%&%zz=%E0%A4%A"),
  pj("1,000 parameters", Array.from({ length: 1_000 }, (_, i) => `p${i}=${i}`).join("&")),
];

/** Headers for any operation. They replace the auth headers they name. */
export interface HeaderJunk {
  label: string;
  must?: boolean;
  headers: Array<[string, string]>;
  /** Only meaningful for reads (Range, conditional requests). */
  getOnly?: boolean;
}
const hj = (label: string, headers: Array<[string, string]>, must = false, getOnly = false): HeaderJunk => ({
  label,
  headers,
  must,
  getOnly,
});

export const HEADER_JUNK: HeaderJunk[] = [
  hj("cookie cairn_session=%", [["Cookie", "cairn_session=%"]], true),
  hj("cookie cairn_session=%E0%A4%A", [["Cookie", "cairn_session=%E0%A4%A"]], true),
  hj("cookie %%%; other=%", [["Cookie", "cairn_session=%%%; other=%"]]),
  hj("cookie of 8 KB", [["Cookie", `cairn_session=${"a".repeat(8 * KB)}`]]),
  hj("quoted cookie", [["Cookie", 'cairn_session="abc"']]),
  hj("two session cookies", [["Cookie", "cairn_session=a; cairn_session=b"]]),
  hj("cookie without =", [["Cookie", "cairn_session"]]),
  hj("300 cookies", [["Cookie", Array.from({ length: 300 }, (_, i) => `c${i}=${i}`).join("; ")]]),
  hj("cookie %00", [["Cookie", "cairn_session=%00"]]),
  hj("cookie latin1", [["Cookie", "cairn_session=\xff\xfe"]]),
  hj("Bearer alone", [["Authorization", "Bearer"]], true),
  hj("Bearer cct_", [["Authorization", "Bearer cct_"]]),
  hj("Bearer of 8 KB", [["Authorization", `Bearer cct_${"a".repeat(8 * KB)}`]]),
  hj("Basic", [["Authorization", "Basic Zm9vOmJhcg=="]]),
  hj("Bearer with two words", [["Authorization", "Bearer a b"]]),
  hj("Bearer latin1", [["Authorization", "Bearer cct_\xff\xfe"]]),
  hj("Bearer %", [["Authorization", "Bearer %E0%A4%A"]]),
  hj("X-Requested-With lower-case", [["X-Requested-With", "cairn"]]),
  hj("junk X-Forwarded-For", [
    ["X-Forwarded-For", "999.1.1.1, ::ffff:zz, , %"],
    ["X-Forwarded-Proto", "https, http"],
  ]),
  hj("junk Accept", [
    ["Accept", "application/problem+json;q=abc, */*;q=-1"],
    ["Accept-Encoding", "gzip;q=2, br, *;q=x"],
    ["Accept-Language", "\xff"],
  ]),
  hj("Origin null", [
    ["Origin", "null"],
    ["Referer", "javascript:alert(1)"],
  ]),
  hj("Range bytes=0-0", [["Range", "bytes=0-0"]], false, true),
  hj("Range bytes=-1", [["Range", "bytes=-1"]], false, true),
  hj("Range past the end", [["Range", "bytes=99999999999-"]], false, true),
  hj("Range backwards", [["Range", "bytes=5-1"]], false, true),
  hj("Range of many parts", [["Range", "bytes=0-1,2-3,4-5"]], false, true),
  hj("Range junk", [["Range", "bytes=%"]], false, true),
  hj("If-None-Match *", [["If-None-Match", "*"]], false, true),
  hj("If-Modified-Since junk", [["If-Modified-Since", "Mon, 99 Xxx 99999 99:99:99 GMT"]], false, true),
];
