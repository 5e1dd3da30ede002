/** Resolves to what `p` rejects with (typed as `T` for the caller's convenience); throws when it resolves. */
export async function rejection<T = unknown>(p: Promise<unknown>): Promise<T> {
  try {
    await p;
  } catch (e) {
    return e as T;
  }
  throw new Error('expected a rejection');
}
