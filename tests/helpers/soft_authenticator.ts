/**
 * A software passkey for API tests: a P-256 key pair that answers the shop's WebAuthn options as
 * a platform authenticator would ("none" attestation, user verified), so the server's real
 * verification runs without a browser. The credential id may be chosen, as a hostile client can.
 */
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

type Cbor = Parameters<typeof isoCBOR.encode>[0];

/** A passkey held by a test. */
export interface SoftPasskey {
  id: Uint8Array<ArrayBuffer>;
  keys: CryptoKeyPair;
  userHandle?: string;
}

/** A new passkey; `id` is its credential id (random unless given). */
export async function newSoftPasskey(id?: Uint8Array<ArrayBuffer>): Promise<SoftPasskey> {
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  return { id: id ?? crypto.getRandomValues(new Uint8Array(16)), keys };
}

function join(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const text = (s: string) => new TextEncoder().encode(s);

/** The registration response to `options` (as the shop's options route answered them). */
export async function registrationResponse(
  passkey: SoftPasskey,
  options: { challenge: string; rp: { id?: string }; user: { id: string } },
  origin: string,
  /** Bytes of junk in the public key's COSE map (a hostile client's). */
  keyPadding = 0,
) {
  passkey.userHandle = options.user.id;
  const jwk = await crypto.subtle.exportKey("jwk", passkey.keys.publicKey);
  const cose = isoCBOR.encode(
    new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
      ...(keyPadding > 0 ? [[99, new Uint8Array(keyPadding)] as [number, Cbor]] : []),
    ]),
  );
  const idLength = new Uint8Array([passkey.id.length >> 8, passkey.id.length & 0xff]);
  const authData = join(
    await sha256(text(options.rp.id ?? new URL(origin).hostname)),
    new Uint8Array([0x45, 0, 0, 0, 0]),
    new Uint8Array(16),
    idLength,
    passkey.id,
    cose,
  );
  const attestation = isoCBOR.encode(
    new Map<string, Cbor>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]),
  );
  const clientData = text(
    JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin }),
  );
  const id = isoBase64URL.fromBuffer(passkey.id);
  return {
    id,
    rawId: id,
    type: "public-key",
    response: {
      clientDataJSON: isoBase64URL.fromBuffer(clientData),
      attestationObject: isoBase64URL.fromBuffer(attestation),
      transports: ["internal"],
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  };
}

/** A DER ECDSA signature of a raw (r || s) one, as authenticators send it. */
function der(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const value = trimmed[0] & 0x80 ? join(new Uint8Array([0]), trimmed) : trimmed;
    return join(new Uint8Array([0x02, value.length]), value);
  };
  const body = join(int(raw.slice(0, 32)), int(raw.slice(32)));
  return join(new Uint8Array([0x30, body.length]), body);
}

/** The assertion of `passkey` answering `options` (a sign-in's). */
export async function assertionResponse(
  passkey: SoftPasskey,
  options: { challenge: string; rpId?: string },
  origin: string,
) {
  const authData = join(
    await sha256(text(options.rpId ?? new URL(origin).hostname)),
    new Uint8Array([0x05, 0, 0, 0, 0]),
  );
  const clientData = text(
    JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin }),
  );
  const signed = join(authData, await sha256(clientData));
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, passkey.keys.privateKey, signed),
  );
  const id = isoBase64URL.fromBuffer(passkey.id);
  return {
    id,
    rawId: id,
    type: "public-key",
    response: {
      clientDataJSON: isoBase64URL.fromBuffer(clientData),
      authenticatorData: isoBase64URL.fromBuffer(authData),
      signature: isoBase64URL.fromBuffer(der(raw)),
      ...(passkey.userHandle ? { userHandle: passkey.userHandle } : {}),
    },
    clientExtensionResults: {},
    authenticatorAttachment: "platform",
  };
}
