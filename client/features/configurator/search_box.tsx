import { useId } from "react";

/** The search field of a switch picker: matches name or brand, case-insensitive. */
export function SearchBox({ value, onChange }: {
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field search-box">
      <label htmlFor={id}>Search switches</label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder="Name or brand, e.g. Gateron"
        autoComplete="off"
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </div>
  );
}
