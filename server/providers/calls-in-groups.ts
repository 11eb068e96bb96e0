// Several upstream calls for one client request (an embeddings batch a model takes in parts): a few
// at a time, in order. Each group is awaited whole, so no answer is left unread on a pooled
// connection; the calls stop after a group with a failed answer, and the first thrown error is
// thrown once its group has settled.
export async function callsInGroups<T, R>(items: readonly T[], atOnce: number, call: (item: T) => Promise<R>, failed: (result: R) => boolean): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += atOnce) {
    const settled = await Promise.allSettled(items.slice(start, start + atOnce).map(call));
    for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
    const group = (settled as PromiseFulfilledResult<R>[]).map((outcome) => outcome.value);
    results.push(...group);
    if (group.some(failed)) break;
  }
  return results;
}
