/** Writes the catalogue and initial stock into KV where absent; filled in by the catalogue. */
export async function seedKv(_kv: Deno.Kv): Promise<void> {
}
