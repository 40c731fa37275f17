--[[
  flow_set: sets a topic's rate limit in its flow hash (see flow_acquire.lua), from an application's
  configuration or live from an operator.

  In config mode the configuration only gives the starting value: a field is written when the value
  configured differs from the one configuration last wrote (recorded in 'cfg:<field>'), so that a live
  change made since stands across restarts of applications that did not change their configuration.
  In live mode the fields are written as given. Either way a change increments the generation 'gen'
  and restarts the limiter's clock (tat = now): permits owed under the old limit are forgotten, and
  permits reserved under it are not given back.

  KEYS[1]  flow hash       flow{<prefix><topic>}

  ARGV[1]  mode            config | live
  ARGV[2]  rate            permits per second ('': no limit)
  ARGV[3]  burst           bucket size ('' or '0': flow_acquire.lua's default)

  Returns  { changed, gen, previousRate, previousBurst }
           changed       1 when a field changed, else 0
           gen           the generation after the call
           previousRate, previousBurst  config mode: the values configuration last wrote; live mode: the
                         fields before the call ('' when absent)
]]
local flowKey = KEYS[1]
local mode    = ARGV[1]
local wanted  = { rate = ARGV[2], burst = ARGV[3] }
-- #include lib/errors.lua: ERRORS, fail(code, detail)
-- #include lib/clock.lua: redisNow()

if mode ~= 'config' and mode ~= 'live' then
  return fail(ERRORS.BAD_SELECTION, 'mode=' .. tostring(mode))
end
if wanted.rate ~= '' and not ((tonumber(wanted.rate) or 0) > 0) then
  return fail(ERRORS.BAD_VALUE, 'rate=' .. wanted.rate)
end
if wanted.burst == '0' then
  wanted.burst = ''
end
if wanted.burst ~= '' and not ((tonumber(wanted.burst) or -1) >= 0) then
  return fail(ERRORS.BAD_VALUE, 'burst=' .. wanted.burst)
end

local changed = false
local previous = {}
for _, field in ipairs({ 'rate', 'burst' }) do
  local recorded = mode == 'config' and ('cfg:' .. field) or field
  local before = redis.call('HGET', flowKey, recorded) or ''
  previous[field] = before
  if before ~= wanted[field] then
    changed = true
    if wanted[field] == '' then
      redis.call('HDEL', flowKey, field)
    else
      redis.call('HSET', flowKey, field, wanted[field])
    end
    if mode == 'config' then
      redis.call('HSET', flowKey, recorded, wanted[field])
    end
  end
end
local gen = tonumber(redis.call('HGET', flowKey, 'gen') or '0')
if changed then
  gen = redis.call('HINCRBY', flowKey, 'gen', 1)
  redis.call('HSET', flowKey, 'v', '1', 'tat', tostring(redisNow()))
end
return { changed and 1 or 0, gen, previous.rate, previous.burst }
