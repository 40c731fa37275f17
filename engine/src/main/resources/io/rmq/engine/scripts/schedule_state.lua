--[[
  schedule_state: creates, reads, pauses or resumes the state of a recurring schedule (see tick.lua), a hash
  under the hash tag of the slot its fixed payload routes to.

  KEYS[1]  schedule state  schedule:<name>{<prefix><topic>_<slot>} (hash: last, paused)

  ARGV[1]  action          define  create the state when absent, with last = the Redis clock (no tick before
                                   the definition is ever sent); an existing state is kept as it is
                           read    change nothing
                           pause   set paused (ticks are neither recorded nor sent until resumed)
                           resume  clear paused and move last up to the Redis clock: the ticks that fell
                                   during the pause are not missed ticks, they are not sent; the next is
                           remove  delete the state (running instances stop at their next tick)

  Returns  { exists, last, paused, changed }: exists 1 when the state exists after the call (0: removed, or
           never defined: nothing was changed); last the last recorded tick in ms ("0" when none); paused 1/0;
           changed 1 when the call changed the state, else 0
  Errors   (codes in lib/errors.lua) "RMQ_BAD_SELECTION <action>" for an unknown action; nothing is changed
]]
if redis.replicate_commands then redis.replicate_commands() end
-- #include lib/errors.lua: ERRORS (the error codes) and fail(code, detail)
-- #include lib/clock.lua: redisNow()

local stateKey = KEYS[1]
local action   = ARGV[1]
if action ~= 'define' and action ~= 'read' and action ~= 'pause' and action ~= 'resume' and action ~= 'remove' then
  return fail(ERRORS.BAD_SELECTION, action)
end

local changed = 0
if action == 'define' then
  changed = redis.call('HSETNX', stateKey, 'last', string.format('%d', redisNow()))
end
local state = redis.call('HMGET', stateKey, 'last', 'paused')
if not state[1] then return { 0, '0', 0, 0 } end
local last, paused = state[1], state[2] == '1' and 1 or 0

if action == 'pause' and paused == 0 then
  redis.call('HSET', stateKey, 'paused', '1')
  paused, changed = 1, 1
elseif action == 'resume' and paused == 1 then
  local now = redisNow()
  if now > tonumber(last) then last = string.format('%d', now) end
  redis.call('HSET', stateKey, 'last', last)
  redis.call('HDEL', stateKey, 'paused')
  paused, changed = 0, 1
elseif action == 'remove' then
  redis.call('DEL', stateKey)
  return { 0, last, paused, 1 }
end
return { 1, last, paused, changed }
