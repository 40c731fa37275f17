-- The Redis clock (TIME: seconds and microseconds) in ms since the epoch.
local function redisNow()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
