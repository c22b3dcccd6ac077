// Who is signed in: `GET /api/v1/me` through the query layer; a 401 means nobody (null), any
// other failure is an error the shell shows.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError } from "./client";
import type { Me } from "./types";

export const ME_KEY = ["me"] as const;

export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async (): Promise<Me | null> => {
      try {
        return await api<Me>("GET", "/me");
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/**
 * After sign-in, sign-up or sign-out every cached answer may be another person's: drop them all
 * and refetch what is on screen (`clear()` would leave mounted queries without data or refetch).
 */
export function useResetSession(): () => Promise<void> {
  const client = useQueryClient();
  return () => client.resetQueries();
}
