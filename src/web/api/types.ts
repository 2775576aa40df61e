/**
 * Names for the API's answers, taken from the generated schema (never written by hand): the
 * JSON a path's method answers with 200 or 201.
 */
import type { paths } from "./schema";

type Json<R> = R extends { content: { "application/json": infer J } } ? J : never;
type Op<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
export type AnswerOf<P extends keyof paths, M extends keyof paths[P]> =
  Op<P, M> extends { responses: { 200: infer R } } ? Json<R> : Op<P, M> extends { responses: { 201: infer R } } ? Json<R> : never;
export type BodyOf<P extends keyof paths, M extends keyof paths[P]> =
  Op<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

export type Me = AnswerOf<"/api/auth/me", "get">;
export type Instance = AnswerOf<"/api/instance", "get">;
export type Space = AnswerOf<"/api/spaces/{key}", "get">;
export type SpaceSummary = AnswerOf<"/api/spaces", "get">[number];
export type Page = AnswerOf<"/api/pages/{id}", "get">;
export type TreeNode = AnswerOf<"/api/pages/tree", "get">[number];
export type Version = AnswerOf<"/api/pages/{id}/versions", "get">[number];
export type UnpublishedAuthor = AnswerOf<"/api/pages/{id}/unpublished", "get">["authors"][number];
export type VersionWithContent = AnswerOf<"/api/pages/{id}/versions/{number}", "get">;
export type TrashEntry = AnswerOf<"/api/pages/trash", "get">[number];
export type SearchHit =
  AnswerOf<"/api/search", "get"> extends infer S
    ? S extends Array<infer H>
      ? H
      : S extends { results: Array<infer H> }
        ? H
        : never
    : never;
export type User =
  AnswerOf<"/api/users", "get"> extends infer U ? (U extends Array<infer X> ? X : U extends { users: Array<infer X> } ? X : never) : never;
export type Template = AnswerOf<"/api/templates", "get"> extends infer U ? (U extends Array<infer X> ? X : never) : never;
export type Label = AnswerOf<"/api/pages/{id}/labels", "get"> extends infer U ? (U extends Array<infer X> ? X : never) : never;
