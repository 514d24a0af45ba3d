/**
 * A software authenticator for tests: a P-256 key pair from node:crypto, and the WebAuthn
 * answers a browser would send (attestation format "none", assertions signed with ES256),
 * built by hand with the CBOR encoder @simplewebauthn/server ships (its helpers' isoCBOR).
 * Only the bytes the server checks are made; nothing here is a shortcut through our code.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

type Options = { challenge: string };

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter the next assertion reports (it counts up by one each time). */
  counter = 0;
  /** The user handle the passkey was made for (registration's user.id). */
  userHandle: string | null = null;

  constructor(
    readonly origin = "http://localhost:3000",
    readonly rpId = "localhost",
  ) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id() {
    return b64url(this.credentialId);
  }

  private cosePublicKey() {
    const jwk = this.publicKey.export({ format: "jwk" });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
      ]),
    );
  }

  private authData(flags: number, counter: number, attested?: Uint8Array) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(this.rpId),
      Buffer.from([flags]),
      count,
      attested ?? Buffer.alloc(0),
    ]);
  }

  private clientData(type: string, challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to navigator.credentials.create(options), as @simplewebauthn/browser sends it. */
  create(
    options: Options & { user: { id: string } },
    { origin, userVerified = true }: { origin?: string; userVerified?: boolean } = {},
  ) {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([
      Buffer.alloc(16), // aaguid: none
      idLength,
      this.credentialId,
      this.cosePublicKey(),
    ]);
    const flags = FLAG_UP | FLAG_AT | (userVerified ? FLAG_UV : 0);
    const attestationObject = isoCBOR.encode(
      new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", new Uint8Array(this.authData(flags, this.counter, attested))],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /**
   * The answer to navigator.credentials.get(options). `counter` overrides the next count (for a
   * cloned authenticator); `signWith` signs with another key (a forged answer).
   */
  get(
    options: Options,
    {
      origin,
      userVerified = true,
      counter,
      signWith,
    }: { origin?: string; userVerified?: boolean; counter?: number; signWith?: KeyObject } = {},
  ) {
    this.counter = counter ?? this.counter + 1;
    const authData = this.authData(FLAG_UP | (userVerified ? FLAG_UV : 0), this.counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, origin);
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientDataJSON)]),
      signWith ?? this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle ?? undefined,
      },
    };
  }
}

/** Another key, for forged signatures. */
export const strangerKey = () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
