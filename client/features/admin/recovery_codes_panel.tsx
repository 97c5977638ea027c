import { useState } from "react";
import { saveFile } from "../../app/save_file.ts";

/**
 * New recovery codes, shown once: listed, downloadable as a text file, and closed only after the
 * owner says they are saved (the shop keeps only their hashes, so they can never be shown again).
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  function download() {
    const text = `Switch Tester Shop admin recovery codes (each works once):\n\n${
      codes.join("\n")
    }\n`;
    saveFile(new Blob([text], { type: "text/plain" }), "admin-recovery-codes.txt");
  }
  return (
    <div className="recovery-codes" role="group" aria-labelledby="recovery-codes-heading">
      <h3 id="recovery-codes-heading">Your recovery codes</h3>
      <p>
        Each code signs you in once if you lose your phone or passkey. They are shown only now: save
        them somewhere safe, away from this device.
      </p>
      <ul className="recovery-code-list" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="row">
        <button type="button" className="button secondary" onClick={download}>
          Download the codes
        </button>
        <label className="checkbox">
          <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
          I saved them
        </label>
        <button
          type="button"
          className="button"
          aria-disabled={!saved}
          onClick={() => saved && onDone()}
        >
          Done
        </button>
      </div>
    </div>
  );
}
