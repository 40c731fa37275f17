-- The adaptive slow-down of a topic (AIMD: additive increase, multiplicative decrease), run by
-- flow_acquire.lua with no command of its own: each acquire brings the deliveries its consumer settled
-- since its previous call (acked, failed: nacked or past their deadline). Once a window has passed and
-- holds enough outcomes, a failure ratio above the threshold multiplies the rate by beta (down to the
-- floor); a ratio at most half the threshold raises it by a tenth of the ceiling (the rate before the
-- first back-off) until it reaches the ceiling: the slow-down then ends. A window without enough
-- outcomes is extended, so that a slow floor still decides.
--
-- Fields of the flow hash (settings, absent: the default):
--   a.on        '1': on (or the caller passes its own settings)
--   a.threshold failure ratio that slows down (0.5)     a.floor  lowest rate, permits/s (ceiling / 100, at least 1)
--   a.beta      back-off factor (0.5)                   a.window window, ms (1000)    a.min  outcomes per window (10)
-- State (written by this code only):
--   a.rate      the adaptive rate, permits/s (absent: not slowed down)   a.ceiling  the rate before the first back-off
--   a.ok, a.fail, a.granted  outcomes and permits of the window          a.since    the window's start, ms
--   a.reason    why the rate last changed                                a.changed  when, ms
local ADAPTIVE_FIELDS = { 'a.threshold', 'a.floor', 'a.beta', 'a.window', 'a.min', 'a.rate', 'a.ceiling', 'a.ok',
  'a.fail', 'a.granted', 'a.since' }

-- Counts this call's outcomes and decides at the end of a window; returns the adaptive rate (nil: not
-- slowed down) and the state to write with adaptiveWrite once the permits granted are known.
local function adapt(flowKey, now, limit, acked, failed, threshold, floor)
  local f = redis.call('HMGET', flowKey, unpack(ADAPTIVE_FIELDS))
  local s = {
    threshold = threshold or tonumber(f[1]) or 0.5, floor = floor or tonumber(f[2]),
    beta = tonumber(f[3]) or 0.5, window = tonumber(f[4]) or 1000, min = tonumber(f[5]) or 10,
    rate = tonumber(f[6]), ceiling = tonumber(f[7]),
    ok = (tonumber(f[8]) or 0) + acked, fail = (tonumber(f[9]) or 0) + failed,
    granted = tonumber(f[10]) or 0, since = tonumber(f[11]) or now, removed = false,
  }
  local total = s.ok + s.fail
  local elapsed = now - s.since
  if elapsed >= s.window and total >= s.min then
    local ratio = s.fail / total
    if ratio > s.threshold then
      local current = s.rate or limit or (s.granted * 1000 / elapsed)
      s.ceiling = s.ceiling or limit or current
      local floorRate = s.floor or math.max(1, s.ceiling / 100)
      local slowed = math.max(floorRate, current * s.beta)
      if slowed ~= s.rate then
        s.rate = slowed
        s.reason = string.format('failures %d%% > %d%% in %.1f s: %.6g/s', math.floor(ratio * 100 + 0.5),
          math.floor(s.threshold * 100 + 0.5), elapsed / 1000, slowed)
      end
    elseif s.rate and ratio <= s.threshold / 2 then
      s.rate = s.rate + s.ceiling / 10
      if s.rate >= s.ceiling or (limit and s.rate >= limit) then
        s.rate, s.ceiling, s.removed = nil, nil, true
        s.reason = string.format('recovered: failures %d%% in %.1f s', math.floor(ratio * 100 + 0.5), elapsed / 1000)
      else
        s.reason = string.format('recovering: failures %d%% in %.1f s: %.6g/s', math.floor(ratio * 100 + 0.5),
          elapsed / 1000, s.rate)
      end
    end
    s.ok, s.fail, s.granted, s.since = 0, 0, 0, now
  end
  return s.rate, s
end

-- Writes the state adapt returned, with the permits this call granted: one HSET, and an HDEL when the
-- slow-down ended.
local function adaptiveWrite(flowKey, now, s, granted)
  local fields = { 'a.ok', s.ok, 'a.fail', s.fail, 'a.granted', s.granted + granted, 'a.since', s.since }
  if s.rate then
    table.insert(fields, 'a.rate'); table.insert(fields, string.format('%.17g', s.rate))
    table.insert(fields, 'a.ceiling'); table.insert(fields, string.format('%.17g', s.ceiling))
  end
  if s.reason then
    table.insert(fields, 'a.reason'); table.insert(fields, s.reason)
    table.insert(fields, 'a.changed'); table.insert(fields, now)
  end
  redis.call('HSET', flowKey, unpack(fields))
  if s.removed then
    redis.call('HDEL', flowKey, 'a.rate', 'a.ceiling')
  end
end
