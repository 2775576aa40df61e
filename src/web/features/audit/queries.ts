/** The audit log's writes: the chain verified by the server. */
import { useMutation } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { AnswerOf } from "../../api/types";

export type Verification = AnswerOf<"/api/admin/audit/verify", "post">;

/** A POST that changes nothing but asks the server to check every entry's hash link. */
export const useVerifyChainMutation = () => useMutation({ mutationFn: () => data(api.POST("/api/admin/audit/verify")) });
