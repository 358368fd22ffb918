import type { WebSocket } from 'ws';
import type { Ctx } from '../http/context';
import { MatrixAggregator, matrixBlocks, planMatrixScope } from '../matrix/service';

/**
 * The matrix over the socket (spec 2 §7 "fetch_data for roles, users, courses, matrix_cells, top-level aggregate and
 * aggregate"): progress 0, then roles, entities (ours: names for the entity column); then per block of ~500 users
 * (the first one smaller, read before anything global): courses not sent yet (the block's, and after the first
 * block the other courses the rules require), users, matrix_cells, progress; at the end aggregate,
 * top_level_aggregate and progress 1. Blocks are forwarded as the database encoded them (no per-cell objects here).
 *
 * Backpressure: every block message is awaited until ws has written it to the socket (the send callback), and we
 * also wait while the socket's bufferedAmount is high, so a slow client makes the server read the database slower
 * instead of piling blocks up in memory.
 */

const HIGH_WATER = 4 * 1024 * 1024;

function send(socket: WebSocket, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.readyState !== socket.OPEN) return reject(new Error('socket closed'));
    socket.send(text, (error) => (error ? reject(error) : resolve()));
  });
}

async function drained(socket: WebSocket, signal: AbortSignal) {
  while (socket.bufferedAmount > HIGH_WATER && !signal.aborted && socket.readyState === socket.OPEN)
    await new Promise((resolve) => setTimeout(resolve, 5));
}

export async function streamMatrix(
  ctx: Ctx,
  socket: WebSocket,
  id: string,
  filters: unknown,
  signal: AbortSignal,
): Promise<void> {
  const idJson = JSON.stringify(id);
  const data = (kind: string, payload: string, block?: number) =>
    `{"type":"fetch_data","id":${idJson},"kind":"${kind}"${block === undefined ? '' : `,"block":${block}`},"data":${payload}}`;
  const progress = (p: number) => `{"type":"progress","id":${idJson},"progress":${p}}`;

  // The scope only (entities, roles): the first block is read before the global figures (user count, required
  // courses), which follow it; courses always arrive before the cells that use them.
  const plan = await planMatrixScope(ctx, (filters ?? {}) as never);
  if (signal.aborted) return;
  await send(socket, progress(0));
  await send(socket, data('roles', JSON.stringify(plan.roles)));
  await send(socket, data('entities', JSON.stringify(plan.entities)));
  const aggregator = new MatrixAggregator(plan);
  try {
    for await (const block of matrixBlocks(ctx, plan, aggregator, { signal })) {
      if (block.newCourses.length) await send(socket, data('courses', JSON.stringify(block.newCourses)));
      if (block.userCount === 0) continue;
      // The last block's progress is sent after the aggregates: progress 1 means "everything has arrived".
      const last = block.progress >= 1;
      await send(socket, data('users', block.users, block.index));
      const sent = send(socket, data('matrix_cells', block.cells, block.index));
      if (!last) await send(socket, progress(Math.min(0.99, block.progress)));
      await sent;
      await drained(socket, signal);
      // Turns of the event loop between blocks: on PGlite the next queries hold the loop, so the socket would push
      // the rest of a big message, and other sockets be served, only after them. The first block gets a few timer
      // turns (~10 ms), so it reaches the client before the global figures and the next blocks are read.
      for (let turn = block.index === 0 ? 5 : 1; turn > 0; turn--)
        await new Promise((resolve) => (block.index === 0 ? setTimeout(resolve, 2) : setImmediate(resolve)));
      if (signal.aborted) return;
    }
  } catch (error) {
    if (signal.aborted || socket.readyState !== socket.OPEN) return;
    throw error;
  }
  if (signal.aborted) return;
  await send(socket, data('aggregate', JSON.stringify(aggregator.aggregates())));
  await send(socket, data('top_level_aggregate', JSON.stringify(aggregator.topLevel())));
  await send(socket, progress(1));
}
