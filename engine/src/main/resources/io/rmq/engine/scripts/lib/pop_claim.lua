-- The ownership step and the pause check of a pop (pop.lua's header describes them): with coordination
-- (epoch > 0) a caller with an older epoch is fenced, a newer epoch takes the slot over, and while members popped
-- under an earlier epoch are in the prepare queue the handover is pending; a count of 0 only claims the slot; a
-- paused slot pops nothing. Returns the reply for a call that may not pop, or nil when it may. Uses the script's
-- POPPED, HANDOVER, FENCED and PAUSED.
--   epochText  the caller's epoch as given (ARGV[4]), recorded with its worker id and the time
local function claimSlot(ownerKey, prepareKey, pausedKey, epoch, epochText, worker, now, count)
  if epoch > 0 then
    -- an epoch that is not a number (written by hand) counts as none: this claim replaces it
    local owned = tonumber(redis.call('HGET', ownerKey, 'epoch') or '0') or 0
    if epoch < owned then
      return { FENCED, now, -1, owned, 0, 0, 0 }
    end
    if epoch > owned then
      redis.call('HSET', ownerKey, 'epoch', epochText, 'worker', worker, 'since', now)
      if redis.call('ZCARD', prepareKey) > 0 then
        redis.call('HSET', ownerKey, 'handover', 1)
      else
        redis.call('HDEL', ownerKey, 'handover')
      end
    end
    if redis.call('HEXISTS', ownerKey, 'handover') == 1 then
      -- Only the previous owners' members can be there: this owner has not popped yet, and fenced
      -- callers cannot add any.
      local inFlight = redis.call('ZCARD', prepareKey)
      if inFlight > 0 then
        return { HANDOVER, now, -1, inFlight, 0, 0, 0 }
      end
      redis.call('HDEL', ownerKey, 'handover')
    end
  end
  if count == 0 then
    return { POPPED, now, 0, epoch, 0, 0, 0 }
  end
  if redis.call('EXISTS', pausedKey) == 1 then
    return { PAUSED, now, 1000, epoch, 0, 0, 0 }
  end
  return nil
end
