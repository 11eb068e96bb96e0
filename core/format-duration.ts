// A wait in words for people ("45 s", "12 min", "20 h 4 min", "3 d 2 h"): Retry-After values and
// reset times are seconds, which read badly once they pass a minute.

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`a duration must be a number of seconds >= 0, got ${seconds}`);
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(s / 3600);
  const restMinutes = Math.floor((s % 3600) / 60);
  if (hours < 24) return restMinutes ? `${hours} h ${restMinutes} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  return restHours ? `${days} d ${restHours} h` : `${days} d`;
}
