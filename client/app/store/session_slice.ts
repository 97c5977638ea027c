import type { StateCreator } from "zustand";
import { readLocal, readSession, writeLocal, writeSession } from "./storage.ts";

/** Who is signed in (shopper token) and whether the admin gate was passed in this tab. */
export interface SessionSlice {
  userId: string | null;
  token: string | null;
  email: string | null;
  adminAuth: boolean;
  signIn: (userId: string, token: string, email: string) => void;
  signOut: () => void;
  setAdminAuth: (on: boolean) => void;
}

/** The session this browser holds. */
export function storedSession(): Pick<SessionSlice, "userId" | "token" | "email" | "adminAuth"> {
  return {
    userId: readLocal("userId"),
    token: readLocal("token"),
    email: readLocal("userEmail"),
    adminAuth: readSession("adminAuth") === "true",
  };
}

/** Session slice of the store: userId and token in localStorage, adminAuth in sessionStorage. */
export const createSessionSlice: StateCreator<SessionSlice, [], [], SessionSlice> = (set) => ({
  userId: null,
  token: null,
  email: null,
  adminAuth: false,
  signIn: (userId, token, email) => {
    writeLocal("userId", userId);
    writeLocal("token", token);
    writeLocal("userEmail", email);
    set({ userId, token, email });
  },
  signOut: () => {
    writeLocal("token", null);
    writeLocal("userEmail", null);
    set({ token: null, email: null });
  },
  setAdminAuth: (adminAuth) => {
    writeSession("adminAuth", adminAuth ? "true" : null);
    set({ adminAuth });
  },
});
